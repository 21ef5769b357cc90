<?php
/**
 * Verifies relay-parcels webhooks with plain PHP (7.0 or later; hash and base64 are built in):
 * copy this file into your shop, no Composer needed.
 *
 * Every delivery carries two signatures; check the Standard Webhooks one:
 *
 *   webhook-id: <delivery id>            the same on every retry: process each id once
 *   webhook-timestamp: <unix seconds>    when this attempt was sent
 *   webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<raw body>"> [v1,<...> while we rotate your secret]
 *   X-Relay-Signature: sha256=<hex HMAC-SHA256 of the raw body>   (older scheme: body only, replayable)
 *
 * Usage, in the script your webhook URL points to:
 *
 *   require __DIR__ . '/verify-webhook.php';
 *   $rawBody = file_get_contents('php://input');              // the raw bytes, never json_encode(json_decode(...))
 *   $event = RelayWebhook::parse($rawBody, RelayWebhook::requestHeaders(), getenv('RELAY_WEBHOOK_SECRET'));
 *   if ($event === null) { http_response_code(401); exit; }
 *   // process $event once per delivery id (RelayWebhook::requestHeaders()['webhook-id']), then:
 *   http_response_code(204);                                   // any 2xx within 15 seconds
 *
 * Give the secret exactly as you set it or as the back-office generated it (whsec_...). While you
 * move to a new secret, pass both: array($newSecret, $oldSecret).
 *
 * Ordering: deliveries may arrive late (retries). Each event carries "occurredAt" (when the status
 * changed) and "sequence" (per parcel, increasing with each of its events): keep the highest
 * sequence applied per parcel, and ignore an event whose sequence is not higher.
 *
 * With the official library instead, see verify-webhook-standardwebhooks.php.
 */
final class RelayWebhook
{
    /** Five minutes either way, as the Standard Webhooks libraries allow. */
    const TIMESTAMP_TOLERANCE_SECONDS = 300;
    const STANDARD_PREFIX = 'whsec_';

    const VALID = 'valid';
    const INVALID_HEADERS = 'invalid_headers';
    const TIMESTAMP_OUTSIDE_TOLERANCE = 'timestamp_outside_tolerance';
    const NO_MATCHING_SIGNATURE = 'no_matching_signature';

    /**
     * HMAC key of the Standard Webhooks signature: the bytes after whsec_ when the rest is
     * canonical base64 (secrets the back-office generates), else the secret's own bytes (a secret
     * you chose).
     */
    public static function standardKey($secret)
    {
        $prefixLength = strlen(self::STANDARD_PREFIX);
        if (strncmp($secret, self::STANDARD_PREFIX, $prefixLength) === 0) {
            $encoded = (string) substr($secret, $prefixLength);
            $key = base64_decode($encoded, true);
            if (is_string($key) && $key !== '' && base64_encode($key) === $encoded) {
                return $key;
            }
        }
        return $secret;
    }

    /** Your secret in the form the official Standard Webhooks libraries expect (whsec_...). */
    public static function standardWebhooksSecret($secret)
    {
        return self::STANDARD_PREFIX . base64_encode(self::standardKey($secret));
    }

    /**
     * One of the VALID, INVALID_HEADERS, TIMESTAMP_OUTSIDE_TOLERANCE or NO_MATCHING_SIGNATURE
     * constants. $headers: names in lower case (requestHeaders() gives them so); $secrets: a string,
     * or an array of them while you rotate; $now: unix seconds, default the clock.
     */
    public static function check($rawBody, array $headers, $secrets, $now = null, $tolerance = self::TIMESTAMP_TOLERANCE_SECONDS)
    {
        $id = isset($headers['webhook-id']) ? $headers['webhook-id'] : null;
        $timestamp = isset($headers['webhook-timestamp']) ? $headers['webhook-timestamp'] : null;
        $signatures = isset($headers['webhook-signature']) ? $headers['webhook-signature'] : null;
        if (!is_string($id) || $id === '' || !is_string($signatures) || $signatures === ''
            || !is_string($timestamp) || preg_match('/^[0-9]{1,15}$/D', $timestamp) !== 1) {
            return self::INVALID_HEADERS;
        }
        $now = $now === null ? time() : (int) $now;
        if (abs($now - (int) $timestamp) > $tolerance) {
            return self::TIMESTAMP_OUTSIDE_TOLERANCE;
        }
        $given = array();
        foreach (explode(' ', $signatures) as $entry) {
            if (strncmp($entry, 'v1,', 3) === 0) {
                $given[] = (string) substr($entry, 3);
            }
        }
        $valid = false;
        foreach (self::secretList($secrets) as $secret) {
            $expected = base64_encode(hash_hmac('sha256', $id . '.' . $timestamp . '.' . $rawBody, self::standardKey($secret), true));
            foreach ($given as $signature) {
                // Constant time: how much of a forged signature matches must not show in the timing.
                if (hash_equals($expected, $signature)) {
                    $valid = true;
                }
            }
        }
        return $valid ? self::VALID : self::NO_MATCHING_SIGNATURE;
    }

    public static function verify($rawBody, array $headers, $secrets, $now = null)
    {
        return self::check($rawBody, $headers, $secrets, $now) === self::VALID;
    }

    /** The event as an array when the delivery is genuine and fresh; null otherwise. */
    public static function parse($rawBody, array $headers, $secrets, $now = null)
    {
        if (!self::verify($rawBody, $headers, $secrets, $now)) {
            return null;
        }
        $event = json_decode($rawBody, true);
        return is_array($event) && isset($event['type']) && is_string($event['type']) ? $event : null;
    }

    /**
     * The older check, on X-Relay-Signature only: it covers the body, not the timestamp, so a
     * captured delivery can be replayed. Prefer verify().
     */
    public static function verifyRelaySignature($rawBody, $signatureHeader, $secrets)
    {
        if (!is_string($signatureHeader)) {
            return false;
        }
        $value = strtolower(trim($signatureHeader));
        if (preg_match('/^sha256=([0-9a-f]{64})$/D', $value, $match) !== 1) {
            return false;
        }
        $valid = false;
        foreach (self::secretList($secrets) as $secret) {
            if (hash_equals(hash_hmac('sha256', $rawBody, $secret), $match[1])) {
                $valid = true;
            }
        }
        return $valid;
    }

    /** The request's headers with lower-case names, under Apache, PHP-FPM or the built-in server. */
    public static function requestHeaders()
    {
        $headers = array();
        if (function_exists('getallheaders')) {
            foreach (getallheaders() as $name => $value) {
                $headers[strtolower($name)] = $value;
            }
            return $headers;
        }
        foreach ($_SERVER as $name => $value) {
            if (strncmp($name, 'HTTP_', 5) === 0) {
                $headers[strtolower(str_replace('_', '-', substr($name, 5)))] = $value;
            }
        }
        return $headers;
    }

    private static function secretList($secrets)
    {
        $list = array();
        foreach ((array) $secrets as $secret) {
            if (is_string($secret) && $secret !== '') {
                $list[] = $secret;
            }
        }
        return $list;
    }
}
