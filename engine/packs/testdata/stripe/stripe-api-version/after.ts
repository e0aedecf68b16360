import Stripe from 'stripe';
export const stripe = new Stripe(key(), { apiVersion: '2024-04-10', maxNetworkRetries: 2 });
export const other = new Stripe(key(), {
  apiVersion: "2024-04-10",
});
declare function key(): string;
