// Moved to core/ so the simulation server (sim/) checks tokens the same way; kept here for serve's imports.
export { bearerTokenChecker } from '../core/bearer-token.js';
