export { DomainError, domainErrorByStatus, domainErrorOf, DomainErrorStatus } from './domain-error';
