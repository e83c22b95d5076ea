// HTML text from values: every value escaped, pages in one layout.

/// Builds the gallery's pages. Values are escaped here and nowhere else; templates never
/// build commands or queries.
enum HTML {
    /// `text` safe inside an element or a quoted attribute.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `text` percent-encoded for a URL path segment or query value.
    static func urlComponent(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"),
                UInt8(ascii: "."),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF")
                out += "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
            }
        }
        return out
    }

    /// A whole page: one column on a phone, a wider grid on a laptop. `csrf` goes into a meta
    /// tag for the script (nil on the login page, which has no session yet).
    static func page(title: String, csrf: String?, body: String, script: Bool = true) -> String {
        var head = """
            <!doctype html><html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width,initial-scale=1">
            <title>\(escape(title)) · Pinhole</title><style>\(WebAssets.css)</style>
            """
        if let csrf { head += "<meta name=\"csrf\" content=\"\(escape(csrf))\">" }
        if script { head += "<script src=\"/app.js\" defer></script>" }
        let nav =
            csrf == nil
            ? ""
            : """
            <nav><a href="/">Photos</a><a href="/albums">Albums</a><a href="/camera">Camera</a>\
            <a href="/status">Status</a><a href="/settings">Settings</a>\
            <form method="post" action="/logout"><input type="hidden" name="csrf" value="\(escape(csrf!))">\
            <button>Log out</button></form></nav>
            """
        return head + "</head><body>" + nav + "<main><h1>\(escape(title))</h1>" + body
            + "</main></body></html>"
    }

    /// A hidden CSRF field for a form.
    static func csrfField(_ token: String) -> String {
        "<input type=\"hidden\" name=\"csrf\" value=\"\(escape(token))\">"
    }
}
