export { generateCredential, hashSecret, secretLookupKey, verifySecret } from './secrets';
export { SecretBox } from './sealed-secret';
