import {ApiVersion} from './apiVersion';

declare module 'stripe' {
  namespace Stripe {
    export type LatestApiVersion = typeof ApiVersion;
  }
}
