-- Issue 11: merchants read their wallet with the new scope wallet:read. Keys created without
-- `scopes` get every scope; the keys that already had every scope there was (both parcel scopes)
-- gain it here, so that they keep "everything" as it was promised to them. A key limited on
-- purpose (one parcel scope only) stays limited.
UPDATE auth.api_keys
   SET scopes = array_append(scopes, 'wallet:read')
 WHERE scopes @> ARRAY['parcels:read', 'parcels:write']::text[]
   AND NOT scopes @> ARRAY['wallet:read']::text[];
