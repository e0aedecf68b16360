declare namespace Stripe {
  namespace WebhookEndpointCreateParams {
    type ApiVersion = '2011-01-01' | '2026-11-18.endive';
  }
}
