-- The relay directory as recipients and merchants use it: names in Arabic, a position for
-- "nearest points", opening hours. Every new column is nullable: points created before this
-- migration have none of it until the seed or an operator fills it in.
ALTER TABLE parcels.relay_points
  ADD COLUMN name_ar text CHECK (name_ar IS NULL OR (btrim(name_ar) <> '' AND char_length(name_ar) <= 200)),
  ADD COLUMN city_ar text CHECK (city_ar IS NULL OR (btrim(city_ar) <> '' AND char_length(city_ar) <= 100)),
  ADD COLUMN latitude double precision CHECK (latitude BETWEEN -90 AND 90),
  ADD COLUMN longitude double precision CHECK (longitude BETWEEN -180 AND 180),
  -- lib/opening-hours.ts: {"mon": [{"open": "08:30", "close": "12:30"}, …], …, "sun": []}. The
  -- ranges are checked by the back-office schema; the table makes sure every day is there.
  ADD COLUMN opening_hours jsonb CHECK (
    opening_hours IS NULL OR (
      jsonb_typeof(opening_hours) = 'object'
      AND opening_hours ?& ARRAY['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']
      AND jsonb_typeof(opening_hours -> 'mon') = 'array'
      AND jsonb_typeof(opening_hours -> 'tue') = 'array'
      AND jsonb_typeof(opening_hours -> 'wed') = 'array'
      AND jsonb_typeof(opening_hours -> 'thu') = 'array'
      AND jsonb_typeof(opening_hours -> 'fri') = 'array'
      AND jsonb_typeof(opening_hours -> 'sat') = 'array'
      AND jsonb_typeof(opening_hours -> 'sun') = 'array'
    )
  ),
  ADD CONSTRAINT relay_points_position_pair CHECK ((latitude IS NULL) = (longitude IS NULL));

-- Search keys, folded exactly as lib/search-text.ts folds a query (the same translate tables):
-- accents, case, spaces and punctuation, and the variants of Arabic letters do not matter.
CREATE FUNCTION parcels.fold_search_text(value text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN regexp_replace(
    lower(translate(value,
      'àâäáãçéèêëîïíìôöóòõûüùúÿñÀÂÄÁÃÇÉÈÊËÎÏÍÌÔÖÓÒÕÛÜÙÚŸÑأإآٱةىؤئ٠١٢٣٤٥٦٧٨٩ـ',
      'aaaaaceeeeiiiiooooouuuuynaaaaaceeeeiiiiooooouuuuynااااهيوي0123456789')),
    '[^a-z0-9ء-ي]+', '', 'g');

ALTER TABLE parcels.relay_points
  ADD COLUMN city_key text GENERATED ALWAYS AS (parcels.fold_search_text(city)) STORED,
  ADD COLUMN city_ar_key text GENERATED ALWAYS AS (parcels.fold_search_text(city_ar)) STORED,
  -- One folded word per field, separated by spaces, so that `q` never matches across two fields.
  ADD COLUMN search_key text GENERATED ALWAYS AS (
    parcels.fold_search_text(code) || ' ' || parcels.fold_search_text(name) || ' ' ||
    coalesce(parcels.fold_search_text(name_ar), '') || ' ' || parcels.fold_search_text(city) || ' ' ||
    coalesce(parcels.fold_search_text(city_ar), '') || ' ' || coalesce(parcels.fold_search_text(address), '')
  ) STORED;

-- The search reads active points only: by wilaya (then code), by city, or inside a
-- latitude/longitude box before the exact distance (lib/geo.ts boundingBox).
CREATE INDEX relay_points_active_wilaya ON parcels.relay_points (wilaya, code) WHERE active;
CREATE INDEX relay_points_active_city ON parcels.relay_points (city_key) WHERE active;
CREATE INDEX relay_points_active_city_ar ON parcels.relay_points (city_ar_key) WHERE active AND city_ar_key IS NOT NULL;
CREATE INDEX relay_points_active_position ON parcels.relay_points (latitude, longitude) WHERE active AND latitude IS NOT NULL;
