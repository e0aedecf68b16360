import Stripe from 'stripe';
export async function plan(stripe: Stripe) {
  const p = await stripe.products.create({ name: 'Pro', marketing_features: [{ name: 'SSO' }] });
  return p.marketing_features.map((f) => f.name);
}
