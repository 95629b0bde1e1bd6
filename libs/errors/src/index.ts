export { DomainError, domainErrorByStatus, domainErrorOf } from './domain-error';
export { asError } from './as-error';
