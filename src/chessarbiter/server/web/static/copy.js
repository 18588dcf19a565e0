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

// The friend's link of a game, kept by the browser that made it for the board to show.
export const inviteKey = gameId => `chessarbiter:invite:${gameId}`
