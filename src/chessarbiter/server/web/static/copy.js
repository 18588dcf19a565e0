// Copying a link to the clipboard, with a confirmation in words ("Copied.") in a status
// element; where the clipboard API is refused (a page not served over HTTPS) the link is
// selected for the person to copy.
export async function copyLink(input, status) {
    status.textContent = ""
    try {
        await navigator.clipboard.writeText(input.value)
        status.textContent = "Copied."
    } catch (e) {
        input.select()
        status.textContent = "Selected: copy it with Ctrl+C (or Cmd+C)."
    }
}

const PREFIX = "chessarbiter:invite:"

// The links of a friend's game, kept by the browser that made it until the game ends, for
// its board and the home page to show again: {other, mine, watch} (the friend's link, the
// player's own board and the spectators').
export function keepInvite(gameId, links) {
    localStorage.setItem(PREFIX + gameId, JSON.stringify(links))
}

export function keptInvite(gameId) {
    try {
        const links = JSON.parse(localStorage.getItem(PREFIX + gameId))
        return links && typeof links.other === "string" ? links : null
    } catch (e) {
        return null
    }
}

export function forgetInvite(gameId) {
    localStorage.removeItem(PREFIX + gameId)
}

// The ids of the games whose links are kept.
export function keptGames() {
    return Object.keys(localStorage).filter(key => key.startsWith(PREFIX)).map(key => key.slice(PREFIX.length))
}
