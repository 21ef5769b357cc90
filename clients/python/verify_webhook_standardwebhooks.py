"""Verify relay-parcels webhooks with the official Standard Webhooks library.

    pip install standardwebhooks

The library needs your secret in its Standard Webhooks form (whsec_...): the secret itself when the
back-office generated it; for a secret you chose, "whsec_" + base64 of it, which
verify_webhook.standard_webhooks_secret(secret) computes and the back-office shows. It checks the
webhook-id, webhook-timestamp (5 minutes either way) and webhook-signature headers of the raw body,
every v1 signature in turn (two while we rotate your secret), in constant time.

Flask:

    @app.post("/hooks/relay")
    def relay_hook():
        event = parse_webhook(request.get_data(), request.headers, os.environ["RELAY_WEBHOOK_SECRET_WHSEC"])
        if event is None:
            return "", 401
        # process event once per request.headers["webhook-id"], then answer 2xx within 15 seconds
        return "", 204

Ordering: each event carries "occurredAt" and a per-parcel "sequence"; ignore an event whose
sequence is not higher than the last one applied for its parcel.
"""

from standardwebhooks.webhooks import Webhook, WebhookVerificationError


def parse_webhook(raw_body, headers, standard_webhooks_secret):
    """The event as a dict when genuine and fresh; None otherwise."""
    try:
        return Webhook(standard_webhooks_secret).verify(raw_body, dict(headers.items()))
    except (WebhookVerificationError, ValueError):
        # ValueError: a malformed signature entry or body, which the library does not wrap.
        return None
