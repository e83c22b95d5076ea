// A photo's page: the picture, every metadata field the library reports, its location,
// the original's download and the actions.

import PinholeConsole

/// Renders one photo's page body.
enum PhotoPage {
    static func render(_ detail: LibraryPhotoDetail, albums: [LibraryAlbumRow], csrf: String) -> String {
        let id = detail.id
        var out = picture(detail)
        out += """
            <p><a id="download" href="/photo/\(id)/original" download>Download original</a>\
            \(detail.clipKind == "live" ? " · <a href=\"/photo/\(id)/motion\" download>Download motion clip</a>" : "")</p>
            """
        out += "<table>"
        for (label, value) in detail.fields() {
            out += "<tr><td>\(HTML.escape(label))</td><td>\(HTML.escape(value))</td></tr>"
        }
        out += "</table>"
        if let latitude = detail.latitude, let longitude = detail.longitude {
            out += """
                <p>Location: \(latitude), \(longitude) \
                (<a rel="noreferrer" href="https://www.openstreetmap.org/?mlat=\(latitude)&amp;mlon=\(longitude)#map=16/\(latitude)/\(longitude)">map</a>)</p>
                """
        } else {
            out += "<p>Location: none recorded</p>"
        }
        var actions: [(String, String)] = [
            detail.favorite ? ("unfavorite", "Unfavorite") : ("favorite", "Favorite"),
            detail.hidden == true ? ("unhide", "Unhide") : ("hide", "Hide"),
        ]
        actions.append(detail.deleted == nil ? ("delete", "Delete") : ("restore", "Restore"))
        out += "<div class=\"actions\">"
        for (action, label) in actions {
            // The console's confirmation for the command, asked the same way: a typed word.
            let words = (try? WebRoutes.libraryWords(WebForm("action=\(action)")!, id: id)) ?? []
            let confirm = LibraryWordsCommand(words).confirmation.map { question in
                """
                <input name="confirm" size="8" placeholder="type \(HTML.escape(question.word))" \
                aria-label="\(HTML.escape(question.question))" autocomplete="off">
                """
            }
            out += """
                <form method="post" action="/photo/\(id)/action">\(HTML.csrfField(csrf))\(confirm ?? "")\
                <button name="action" value="\(action)">\(label)</button></form>
                """
        }
        if !albums.isEmpty {
            let options = albums.map { "<option value=\"\($0.id)\">\(HTML.escape($0.title))</option>" }
                .joined()
            out += """
                <form method="post" action="/photo/\(id)/action">\(HTML.csrfField(csrf))\
                <select name="album">\(options)</select>\
                <button name="action" value="album-add">Add to album</button>\
                <button name="action" value="album-remove">Remove from album</button></form>
                """
        }
        return out + "</div>"
    }

    /// The picture: a clip plays in a video element over its poster (the Range download, so
    /// it seeks); a Live Photo shows its still and plays its motion clip beneath.
    static func picture(_ detail: LibraryPhotoDetail) -> String {
        let id = detail.id
        let still =
            "<a href=\"/photo/\(id)/original\"><img alt=\"photo \(id)\" src=\"/photo/\(id)/view\"></a>"
        switch detail.clipKind {
        case "video"?:
            return """
                <div class="photo"><video id="clip" controls playsinline preload="metadata" \
                poster="/photo/\(id)/view" src="/photo/\(id)/original"></video></div>
                """
        case "live"?:
            return """
                <div class="photo">\(still)</div>\
                <div class="photo"><video id="clip" controls playsinline muted loop preload="metadata" \
                poster="/photo/\(id)/view" src="/photo/\(id)/motion"></video></div>
                """
        default:
            return "<div class=\"photo\">\(still)</div>"
        }
    }
}
