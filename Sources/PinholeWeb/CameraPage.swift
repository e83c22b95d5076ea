// The camera page: the live view (tap to focus), the shutter and the camera's controls.

/// Renders the camera page's body.
enum CameraPage {
    /// `rotation`: how far the camera is mounted turned clockwise (nil: no camera running);
    /// the live view is turned back upright so that a tap lands in upright coordinates.
    static func render(rotation: Int?) -> String {
        let turn = rotation.map { (360 - $0) % 360 } ?? 0
        let live =
            rotation == nil
            ? "<p class=\"note\">No camera is running.</p>"
            : """
            <div class="live"><img id="live" alt="live view" src="/camera/live" \
            style="transform:rotate(\(turn)deg)"></div><p>Tap the picture to focus there.</p>
            """
        return live + """
            <p><button data-command="shutter" id="shutter">Shutter</button>\
            <button data-command="switch">Switch camera</button>\
            <button data-command="torch-on">Torch on</button><button data-command="torch-off">Torch off</button></p>\
            <p><label>Flash <select id="flash"><option>off</option><option>on</option><option>auto</option></select></label>\
            <button data-command="flash" data-input="flash">Set</button></p>\
            <p><label>EV <input id="ev" type="number" step="0.5" min="-4" max="4" value="0"></label>\
            <button data-command="ev" data-input="ev">Set</button></p>\
            <p><label>Focus <select id="af"><option>continuous</option><option>auto</option><option>manual</option></select></label>\
            <button data-command="af-mode" data-input="af">Set</button></p>\
            <p><label>Shutter <select id="time">\(shutterOptions)</select></label>\
            <label>Gain <input id="gain" type="number" step="0.1" min="1" max="16" value="1"></label>\
            <button data-command="exposure-manual" data-fields="time gain" id="manual">Manual exposure</button>\
            <button data-command="exposure-auto">Auto exposure</button><br><small>gain 1 = ISO 100; \
            the camera refuses what it cannot do</small></p>\
            <p id="answer"></p><h2>Events</h2><pre id="log"></pre>
            """
    }

    /// Shutter speeds for manual exposure, as the time in microseconds the command takes.
    static let shutterSpeeds: [(label: String, microseconds: Int)] = [
        ("1/2000", 500), ("1/1000", 1000), ("1/500", 2000), ("1/250", 4000), ("1/125", 8000),
        ("1/60", 16_667),
        ("1/30", 33_333), ("1/15", 66_667), ("1/8", 125_000), ("1/4", 250_000), ("1/2", 500_000),
        ("1 s", 1_000_000),
    ]

    private static var shutterOptions: String {
        shutterSpeeds.map { speed in
            "<option value=\"\(speed.microseconds)\"\(speed.label == "1/60" ? " selected" : "")>\(speed.label)</option>"
        }.joined()
    }
}
