// Starting games through the server's API: an open challenge (a link per side), an open seek,
// a game against the built-in engine. Each gives the player's board URL (with its secret).
import {post, readNdjson, ApiError} from "./api.js"

function common(choice) {
    return {timeControl: choice.control, profile: choice.profile, color: choice.color}
}

export async function friend(choice) {
    const {color, ...fields} = common(choice)
    const reply = await post("/api/challenge/open", "", fields)
    const white = color === "white" || (color === "random" && Math.random() < 0.5)
    const [mine, other] = white ? [reply.urlWhite, reply.urlBlack] : [reply.urlBlack, reply.urlWhite]
    return {mine, other, watch: reply.url}
}

export async function engine(choice) {
    const reply = await post("/api/challenge/ai", "", {...common(choice), level: choice.level})
    return reply.url
}

// An open seek, withdrawn when `signal` aborts (its stream closed).
export async function seek(choice, signal) {
    const res = await fetch("/api/board/seek", {
        method: "POST", signal, headers: {"Content-Type": "application/json"}, body: JSON.stringify(common(choice)),
    })
    if (!res.ok) {
        let text = `HTTP ${res.status}`
        try { text = (await res.json()).error } catch (e) { /* the status says it */ }
        throw new ApiError(text)
    }
    let url = null
    await readNdjson(res, line => { if (line.url) url = line.url })
    if (!url) throw new ApiError("the seek ended without a game")
    return url
}
