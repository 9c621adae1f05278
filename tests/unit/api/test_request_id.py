"""Request ids on the response: echoed once, replacing any the app set, other headers kept."""

from __future__ import annotations

from api.middleware.request_id import echo_request_id


def test_the_request_id_is_added_to_a_response_without_one() -> None:
    message = {"type": "http.response.start", "status": 200, "headers": [(b"a", b"1")]}
    echo_request_id(message, "abc-123")
    assert message["headers"] == [(b"a", b"1"), (b"x-request-id", b"abc-123")]


def test_an_id_the_app_set_is_replaced_and_never_doubled() -> None:
    headers = [(b"x-request-id", b"old"), (b"a", b"1"), (b"x-request-id", b"older")]
    message = {"type": "http.response.start", "status": 200, "headers": headers}
    echo_request_id(message, "new")
    assert message["headers"] == [(b"x-request-id", b"new"), (b"a", b"1")]


def test_headers_given_as_a_tuple_or_not_at_all_become_a_list() -> None:
    given = {"type": "http.response.start", "status": 200, "headers": ((b"a", b"1"),)}
    bare = {"type": "http.response.start", "status": 204}
    echo_request_id(given, "x")
    echo_request_id(bare, "y")
    assert given["headers"] == [(b"a", b"1"), (b"x-request-id", b"x")]
    assert bare["headers"] == [(b"x-request-id", b"y")]
