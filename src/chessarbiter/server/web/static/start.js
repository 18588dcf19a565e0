// Starting games through the server's API: an open challenge (a link per side), an open seek,
// a game against the built-in engine. Each resolves to the player's board URL.
import {post, readNdjson, ApiError} from "./api.js"

function common(choice) {
    return {"clock.control": choice.control, profile: choice.profile, color: choice.color}
}

export async function friend(choice) {
    const reply = await post("/api/challenge/open", "", common(choice))
    return {mine: reply.urlMine, other: reply.urlOther}
}

export async function engine(choice) {
    const reply = await post("/api/challenge/ai", "", {...common(choice), level: choice.level})
    return reply.url
}

export async function seek(choice) {
    const res = await fetch("/api/board/seek", {method: "POST", body: new URLSearchParams(common(choice))})
    if (!res.ok) throw new ApiError(`seek refused (HTTP ${res.status})`)
    let url = null
    await readNdjson(res, line => { if (line.url) url = line.url })
    if (!url) throw new ApiError("the seek ended without a game")
    return url
}
