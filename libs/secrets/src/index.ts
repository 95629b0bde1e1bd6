export { generateCredential, hashSecret, secretLookupKey, verifySecret } from './secrets';
