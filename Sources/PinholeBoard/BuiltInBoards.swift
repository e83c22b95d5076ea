// The simulated board's profile, built in so `--board sim` works from any directory.

import PinholeCore

/// Profiles compiled into the binary.
public enum BuiltInBoards {
    /// The text of board/sim/board.toml (a test checks that the two stay identical).
    public static let simulatedProfileText = """
        # The simulated board: what `pinhole run --board sim` wires up on any machine.
        # Line names follow the Raspberry Pi header (BCM numbering) so scripts carry over.

        [board]
        name = "Simulated board (two cameras, two-stage shutter, mode switch, tilt sensor, LEDs, buzzer)"
        make = "Pinhole"

        # Two-stage shutter: half press focuses and locks exposure, full press captures,
        # holding the full press bursts (first shot at hold_ms, then one every repeat_ms).
        [buttons.shutter]
        line = "GPIO17"
        active_low = true
        bias = "pull-up"
        debounce_ms = 10
        hold_ms = 800
        repeat_ms = 250

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

        # Record button: a press starts a clip, the next stops and saves it.
        [buttons.record]
        line = "GPIO19"
        active_low = true
        bias = "pull-up"
        debounce_ms = 10

        # Photo/video mode switch (latching, closed = video): in video mode the shutter starts and
        # stops recording instead of taking photos. `sim hold mode` / `sim release mode` flip it.
        [buttons.mode]
        line = "GPIO18"
        active_low = true
        bias = "pull-up"
        debounce_ms = 20

        # Tilt sensor: two tilt switches to ground; they chatter, so debounce longer.
        [buttons.tilt_a]
        line = "GPIO6"
        active_low = true
        bias = "pull-up"
        debounce_ms = 50

        [buttons.tilt_b]
        line = "GPIO13"
        active_low = true
        bias = "pull-up"
        debounce_ms = 50

        [leds.status]
        line = "GPIO23"

        [leds.capture]
        line = "GPIO24"

        [leds.error]
        line = "GPIO25"

        [leds.torch]
        line = "GPIO26"

        [leds.buzzer]
        line = "GPIO12"

        # Torch + shutter held together for 5 s: every output off, clean exit.
        [chords.shutdown]
        buttons = ["torch", "shutter"]
        hold_ms = 5000
        power_off = false

        # Body rotation (degrees clockwise) for each state of the tilt switches (1 = closed).
        [tilt]
        a0_b0 = 0
        a1_b0 = 90
        a1_b1 = 180
        a0_b1 = 270

        # A trigger input: a PIR motion sensor's output (active high) on a spare line. It wakes the
        # camera from standby and takes `shots` photos, the first of the moment the line went active;
        # no new trigger within holdoff_s. `sim press trigger` fires it.
        [triggers.pir]
        line = "GPIO21"
        edge = "rising"
        bias = "pull-down"
        debounce_ms = 20
        holdoff_s = 10
        shots = 2
        interval_ms = 500

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
