"""The class's own WebSocket route, ``gatelab/class``: a student's answer stored and acknowledged
without a Streamlit script run.

Why: a lesson's pick drawn as a Streamlit widget reruns the whole page (~60–100 ms of the server's
time each); a class answering together is hundreds of page runs at once, queued behind each other
on a 2-core server. In class mode the pick is sent here instead (``app/lessons/class_vote.py``'s
script), stored in the class store and acknowledged only once committed — so an acknowledged
answer is never lost, whichever replica or restart comes next. Stateless: every message carries
its class code and the member's token (or the teacher's key) and the store checks them, so any
replica can answer any student, and a student whose replica died sends again to another.

Messages (JSON, one object each way):

- ``{"op": "answer", "code", "member", "lesson", "question", "choice"}`` →
  ``{"ok": true, "round": r}`` or ``{"error": "…"}`` (the store's refusal, in English; the page
  shows its own translated words)
- ``{"op": "tally", "code", "tk", "lesson", "question"}`` → ``{"rounds": {r: {choice: n}},
  "joined": n}`` (the teacher only)
"""

from __future__ import annotations

from typing import Any

from app.classroom.store import ClassRefused, shared

PATH = "gatelab/class"
store = shared  # the same pool as the pages' (app/classroom/view.py)


def handle(message: Any) -> dict[str, Any]:
    """One message's answer (JSON-ready). Never raises for a client's mistake."""
    if not isinstance(message, dict):
        return {"error": "send one JSON object per message"}
    op = message.get("op")
    try:
        if op == "answer":
            rnd = store().answer(
                message.get("code"),
                message.get("member"),
                message.get("lesson"),
                message.get("question"),
                message.get("choice"),
            )
            return {"ok": True, "round": rnd, "id": message.get("id")}
        if op == "tally":
            s = store()
            counts = s.tally(
                message.get("code"), message.get("tk"), message.get("lesson"), message.get("question")
            )
            return {
                "rounds": {str(r): dict(c) for r, c in counts.items()},
                "joined": len(s.members(message.get("code"), message.get("tk"))),
                "id": message.get("id"),
            }
    except ClassRefused as e:
        return {"error": str(e), "id": message.get("id")}
    except (TypeError, ValueError) as e:
        return {"error": f"bad message: {e}"[:200], "id": message.get("id")}
    return {"error": "unknown op", "id": message.get("id")}


def routes() -> list:
    """The Starlette route ``app/serve.py`` mounts."""
    import anyio
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    async def endpoint(ws: WebSocket) -> None:
        await ws.accept()
        try:
            while True:
                try:
                    message = await ws.receive_json()
                except ValueError:
                    await ws.send_json({"error": "send one JSON object per message"})
                    continue
                # the database call runs in a worker thread, never on the event loop
                await ws.send_json(await anyio.to_thread.run_sync(handle, message))
        except WebSocketDisconnect:
            return

    return [WebSocketRoute("/" + PATH, endpoint)]
