"""What a publishable key may call is each row's `access`, read alike by both transports."""

from __future__ import annotations

import re

from strawberry.utils.str_converters import to_camel_case

from api.graphql.schema import schema
from api.publishable import field_allowed, rest_allowed
from api.usecases.rows import ROWS


def test_each_row_is_open_to_a_publishable_key_on_both_transports_or_on_neither() -> None:
    for row in ROWS:
        path = "/v1" + re.sub(r"{\w+}", "x1", row.path)
        rest = rest_allowed(row.method, path) if row.method is not None else row.public
        graphql = field_allowed(to_camel_case(row.field)) if row.graphql else row.public
        assert rest == graphql == row.public, row.name


def test_what_creates_or_runs_something_needs_a_secret_key() -> None:
    secret = {row.name for row in ROWS if not row.public}
    assert secret == {
        "createSession", "createCampaign", "listSessions", "listCampaigns",
        "fairCommitment", "fairRoll", "fairReveal",
        "startSimulation", "getSimulation", "cancelSimulation",
        "startTuning", "getTuning", "cancelTuning",
    }  # fmt: skip
    # Hand-written: a job's chart and progress are the job's owner's.
    assert not rest_allowed("GET", "/v1/simulations/x1/chart.svg")
    assert not field_allowed("simulationProgress")


def test_every_open_graphql_field_is_in_the_schema() -> None:
    served = {
        name
        for root in (schema._schema.query_type, schema._schema.mutation_type,
                     schema._schema.subscription_type)
        if root is not None
        for name in root.fields
    }  # fmt: skip
    opened = {n for n in served if field_allowed(n)}
    assert {"sessionEvents", "campaignEvents", "revokeSessionTokens", "joinTable"} <= opened
    assert not {"createSession", "startSimulation", "simulationProgress"} & opened
