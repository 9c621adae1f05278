"""API keys: only digests configured, lookups in constant time, keys optional only in dev."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from api.app import create_app
from api.clients import (
    InvalidApiKey,
    KeyConfigError,
    MissingApiKey,
    OriginNotAllowed,
    admit,
    key_digest,
    load_keyring,
)
from api.keys import config_entry, main, new_key
from infra.settings import Settings

SECRET = "s" * 40


def settings(**fields: object) -> Settings:
    return Settings.model_validate({"environment": "test", **fields})


def test_a_configured_key_names_its_app_and_tenant() -> None:
    key = new_key()
    ring = load_keyring(settings(api_keys=json.dumps(config_entry(key, "foundry", "acme"))))
    client = ring.lookup(key)
    assert client is not None and (client.app, client.tenant) == ("foundry", "acme")
    assert key not in client.identity and key not in repr(client)
    with pytest.raises(InvalidApiKey):
        ring.lookup(new_key())
    with pytest.raises(MissingApiKey):
        ring.lookup(None)  # configured keys are always required


def test_without_keys_development_callers_use_the_default_tenant() -> None:
    ring = load_keyring(settings())
    assert ring.lookup(None) is None and ring.default_tenant == "default"
    with pytest.raises(InvalidApiKey):
        ring.lookup("dk_unknown")


def test_production_requires_a_key_even_without_any_configured() -> None:
    ring = load_keyring(settings(environment="production", secret_key=SECRET))
    with pytest.raises(MissingApiKey):
        ring.lookup(None)


def test_keys_can_live_in_a_file_under_the_data_folder(tmp_path: Path) -> None:
    key = new_key()
    (tmp_path / "keys.json").write_text(json.dumps(config_entry(key, "app", "t1")))
    ring = load_keyring(settings(data_dir=tmp_path, api_keys="keys.json"))
    found = ring.lookup(key)
    assert found is not None and found.tenant == "t1"


@pytest.mark.parametrize(
    "raw",
    [
        "[]",
        "{not json",
        json.dumps({"abc": {"app": "a", "tenant": "t"}}),  # not a digest
        json.dumps({"0" * 64: {"app": "a", "tenant": "Bad:Tenant"}}),
        json.dumps({"0" * 64: {"tenant": "t"}}),
        "missing-file.json",
    ],
)
def test_a_bad_key_config_is_refused_without_echoing_it(raw: str, tmp_path: Path) -> None:
    with pytest.raises(KeyConfigError) as caught:
        load_keyring(settings(api_keys=raw, data_dir=tmp_path))
    assert "0" * 64 not in str(caught.value)


def test_the_cli_prints_a_key_and_the_entry_of_its_digest(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["new", "--app", "foundry-module", "--tenant", "acme"]) == 0
    out = capsys.readouterr().out.splitlines()
    key = out[0].rsplit(" ", 1)[-1]
    entry = json.loads(out[-1])
    assert entry == {key_digest(key): {"app": "foundry-module", "tenant": "acme"}}
    assert key not in out[-1]


def test_the_table_pages_are_never_handed_a_secret_key() -> None:
    secret, publishable = new_key(), new_key(publishable=True)
    pages = config_entry(publishable, "pages", "acme", ["https://dice.example"])
    keys = {**config_entry(secret, "gm", "acme"), **pages}
    with pytest.raises(ValueError, match="secret key"):
        create_app(settings(api_keys=json.dumps(keys), table_key=secret))
    app = create_app(settings(api_keys=json.dumps(keys), table_key=publishable))
    assert app.state.settings.table_key == publishable


def test_a_same_origin_page_may_use_a_publishable_key_bound_elsewhere() -> None:
    publishable = new_key(publishable=True)
    entry = config_entry(publishable, "pages", "acme", ["https://vtt.example"])
    ring = load_keyring(settings(api_keys=json.dumps(entry)))

    def scope(*headers: tuple[bytes, bytes]) -> dict[str, object]:
        return {"type": "http", "headers": [(b"host", b"dice.example:8000"), *headers]}

    assert admit(ring, scope((b"origin", b"http://dice.example:8000")), publishable).publishable
    assert admit(ring, scope((b"sec-fetch-site", b"same-origin")), publishable).publishable
    assert admit(ring, scope((b"origin", b"https://vtt.example")), publishable).publishable
    for refused in (
        scope(),
        scope((b"origin", b"https://evil.example")),
        scope((b"sec-fetch-site", b"cross-site")),
        scope((b"origin", b"http://dice.example:9999")),
    ):
        with pytest.raises(OriginNotAllowed):
            admit(ring, refused, publishable)
