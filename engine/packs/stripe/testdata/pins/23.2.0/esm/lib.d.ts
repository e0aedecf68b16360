import { ApiVersion } from './apiVersion.js';
export type LatestApiVersion = typeof ApiVersion;
