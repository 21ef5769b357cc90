import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../../lib/action";
import type { AppConfig } from "../../../lib/config";
import type { Database } from "../../../lib/db/database";
import { RELAY_POINTS_PATH } from "../../../lib/endpoint";
import { AppError } from "../../../lib/errors";
import type { Page } from "../../../lib/parcel-view";
import { relaySearchProblems, RelayPointSearchQuery, RelayPointSearchSchema } from "../relay-search";
import { PublicRelayPoint, publicRelaySearch } from "./public-search";
import { PUBLIC_RELAY_SEARCH_DESCRIPTION, PUBLIC_SEARCH_MAX_AGE_SECONDS, PublicRelayPointPageView } from "./public-search.params";

interface PublicSearchThis {
  db: Database;
  config: AppConfig;
}

/** The public API's relay-point search (issue 28), for the checkout picker and any shop's own page. */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, PublicSearchThis>> = {
  actions: {
    publicRelayPoints: defineAction<RelayPointSearchQuery, PublicSearchThis>({
      rest: `GET ${RELAY_POINTS_PATH}`,
      api: "public",
      schema: RelayPointSearchSchema,
      endpoint: {
        operationId: "searchRelayPointsPublic",
        summary: "Search relay points (public, no key, for web pages)",
        description: PUBLIC_RELAY_SEARCH_DESCRIPTION,
        tag: "Public relay points",
        response: PublicRelayPointPageView,
        responseDescription: "A page of active relay points.",
        forBrowsers: { maxAgeSeconds: PUBLIC_SEARCH_MAX_AGE_SECONDS }
      },
      handler(ctx): Promise<Page<PublicRelayPoint>> {
        const problems = relaySearchProblems(ctx.params);
        if (problems.length > 0) throw new AppError("VALIDATION_FAILED", "The request is not valid", { details: problems });
        return publicRelaySearch(
          { db: this.db, holdingDays: this.config.holdingDays, noticeDays: this.config.closureNoticeDays },
          ctx.params
        );
      }
    })
  }
};

export const PublicRelaySearchMixin = mixin as Partial<ServiceSchema>;
