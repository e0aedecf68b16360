import Stripe from 'stripe';
export const stripe = new Stripe(key(), { apiVersion: '2023-10-16', maxNetworkRetries: 2 });
export const other = new Stripe(key(), {
  apiVersion: "2023-10-16",
});
declare function key(): string;
