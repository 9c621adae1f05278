"""GraphQL: campaigns — queries, mutations and the live `campaignEvents` subscription."""

from __future__ import annotations

from api.graphql.campaigns.mutation import CampaignMutation
from api.graphql.campaigns.query import CampaignQuery
from api.graphql.campaigns.subscription import CampaignSubscription

__all__ = ["CampaignMutation", "CampaignQuery", "CampaignSubscription"]
