// The simulated board's profile, built in so `--board sim` works from any directory.

import PinholeCore

/// Profiles compiled into the binary.
public enum BuiltInBoards {
    /// The text of board/sim/board.toml (a test checks that the two stay identical).
    public static let simulatedProfileText = """
# The simulated board: what `pinhole run --board sim` wires up on any machine.
# Line names follow the Raspberry Pi header (BCM numbering) so scripts carry over.

[board]
name = "Simulated board (two cameras, three buttons, four LEDs)"
make = "Pinhole"

[buttons.shutter]
line = "GPIO17"
active_low = true
bias = "pull-up"
debounce_ms = 10

[buttons.half_press]
line = "GPIO5"
active_low = true
bias = "pull-up"
debounce_ms = 10

[buttons.switch]
line = "GPIO27"
active_low = true
bias = "pull-up"
debounce_ms = 10

[buttons.torch]
line = "GPIO22"
active_low = true
bias = "pull-up"
debounce_ms = 10

[leds.status]
line = "GPIO23"

[leds.capture]
line = "GPIO24"

[leds.error]
line = "GPIO25"

[leds.torch]
line = "GPIO26"

[[cameras]]
match = "imx477"
position = "back"
torch = true
mount_rotation = 0
focal_length_mm = 6.0
f_number = 1.8
lens_model = "Simulated 6mm f/1.8 motorized"

[[cameras]]
match = "ov5647"
position = "front"
torch = false
mount_rotation = 0
focal_length_mm = 3.6
f_number = 2.9
lens_model = "Simulated 3.6mm f/2.9 fixed focus"
"""

    /// The simulated board's profile.
    public static func simulated() throws -> BoardProfile {
        try BoardProfile.parse(simulatedProfileText, file: "board/sim/board.toml", name: "sim")
    }
}
