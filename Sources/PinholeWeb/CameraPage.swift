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
            <p><button data-command="exposure-auto">Auto exposure</button></p>\
            <p id="answer"></p><h2>Events</h2><pre id="log"></pre>
            """
    }
}
