// The settings page: every setting the console's `set` takes, its value now, and a form each.

import PinholeConsole

/// Renders the settings page body from the console's `settings` answer.
enum SettingsPage {
    /// `key → value` from `ok key=value key=value …` (values may hold spaces).
    static func values(_ answer: String) -> [String: String] {
        var text = Substring(answer.hasPrefix("ok ") ? answer.dropFirst(3) : Substring(answer))
        var values: [String: String] = [:]
        let keys = SetCommand.keys + ["console.pin"]
        while let equals = text.firstIndex(of: "=") {
            let key = String(text[..<equals])
            var rest = text[text.index(after: equals)...]
            // The value ends where the next known key begins.
            let next = keys.compactMap { rest.firstRange(of: " \($0)=")?.lowerBound }.min() ?? rest.endIndex
            values[key] = String(rest[..<next])
            rest = next == rest.endIndex ? rest[next...] : rest[rest.index(after: next)...]
            text = rest
        }
        return values
    }

    static func render(settingsAnswer: String, csrf: String, message: String?) -> String {
        let values = values(settingsAnswer)
        var out = message.map { "<p class=\"error\">\(HTML.escape($0))</p>" } ?? ""
        out +=
            "<p>PIN: \(HTML.escape(values["console.pin"] ?? "?")) (set it on the console: <code>pin set</code>)</p>"
        out += "<table>"
        let help = Dictionary(
            ConsoleSettings.help.map { ($0.key, $0.help) }, uniquingKeysWith: { first, _ in first })
        for key in SetCommand.keys {
            let help = help[key] ?? "the camera's, applied now and restored at the next start"
            out += """
                <tr><td><label for="s-\(key)">\(HTML.escape(key))</label><br><small>\(HTML.escape(help))</small></td>\
                <td><form method="post" action="/settings">\(HTML.csrfField(csrf))\
                <input type="hidden" name="key" value="\(HTML.escape(key))">\
                <input id="s-\(key)" name="value" value="\(HTML.escape(values[key] ?? ""))" required>\
                <input name="confirm" placeholder="word, if asked" autocomplete="off" size="8">\
                <button>Set</button></form></td></tr>
                """
        }
        return out + "</table>"
    }
}
