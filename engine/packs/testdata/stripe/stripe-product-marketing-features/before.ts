import Stripe from 'stripe';
export async function plan(stripe: Stripe) {
  const p = await stripe.products.create({ name: 'Pro', features: [{ name: 'SSO' }] });
  return p.features.map((f) => f.name);
}
