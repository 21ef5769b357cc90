<?php
/**
 * Verifies relay-parcels webhooks with the official Standard Webhooks library (PHP 8):
 *
 *   composer require standard-webhooks/standard-webhooks
 *
 * The library needs your secret in its Standard Webhooks form (whsec_...): the secret itself when
 * the back-office generated it; for a secret you chose, "whsec_" + base64 of it, which
 * RelayWebhook::standardWebhooksSecret() in verify-webhook.php computes and the back-office shows.
 * It checks the webhook-id, webhook-timestamp (5 minutes either way) and webhook-signature headers
 * of the raw body, every v1 signature in turn (two while we rotate your secret), in constant time.
 *
 * Usage, in the script your webhook URL points to:
 *
 *   require __DIR__ . '/vendor/autoload.php';
 *   require __DIR__ . '/verify-webhook-standardwebhooks.php';
 *   $event = relay_parse_webhook(file_get_contents('php://input'), getallheaders(), getenv('RELAY_WEBHOOK_SECRET_WHSEC'));
 *   if ($event === null) { http_response_code(401); exit; }
 *   // process $event once per delivery id (header webhook-id), then answer 2xx within 15 seconds
 *   http_response_code(204);
 *
 * Ordering: each event carries "occurredAt" and a per-parcel "sequence"; ignore an event whose
 * sequence is not higher than the last one applied for its parcel.
 */

use StandardWebhooks\Exception\WebhookVerificationException;
use StandardWebhooks\Webhook;

function relay_parse_webhook($rawBody, array $headers, $standardWebhooksSecret)
{
    // The library looks the headers up by their lower-case names only.
    $headers = array_change_key_case($headers, CASE_LOWER);
    try {
        $event = (new Webhook($standardWebhooksSecret))->verify($rawBody, $headers);
    } catch (WebhookVerificationException | \TypeError $e) {
        // TypeError: a signature entry without a comma, which the library does not wrap.
        return null;
    }
    return is_array($event) ? $event : null;
}
