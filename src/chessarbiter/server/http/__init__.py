"""The HTTP side: who sends a request (:mod:`.auth`), the guards (:mod:`.guard`,
:mod:`.cors`), the routes of the lichess APIs and the arbiter's, the hot routes in plain ASGI
(:mod:`.asgi`, :mod:`.fastpath`) and the OpenAPI document."""
