import { ValidationPipe } from '@nestjs/common';

/** DTOs validated by class-validator; unknown fields refused so typos are not silently ignored. */
export const strictValidation = new ValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  stopAtFirstError: false,
});
