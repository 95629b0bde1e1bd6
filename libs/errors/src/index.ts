export { DomainError, domainErrorByStatus, domainErrorOf } from './domain-error';
