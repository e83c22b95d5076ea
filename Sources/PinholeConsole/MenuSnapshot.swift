// What the menu shows of the appliance, gathered by the shell and handed to the model.

import PinholeAppliance
import SystemPackage

/// The appliance's state as the menu shows it; the shell refreshes it about once a second
/// and after every command.
public struct MenuSnapshot: Sendable {
    /// A camera, for the Camera page.
    public struct Camera: Hashable, Sendable {
        /// Camera id.
        public var id: String
        /// Model.
        public var model: String
        /// back / front / external.
        public var position: String
        /// Whether it is the running camera.
        public var current: Bool
        /// Whether it has a torch.
        public var torch: Bool
        /// autofocus / motorized / fixed.
        public var focus: String
        /// Still sizes it lists, "WxH".
        public var stillSizes: [String] = []

        /// Creates a camera summary.
        public init(id: String, model: String, position: String, current: Bool, torch: Bool, focus: String) {
            self.id = id
            self.model = model
            self.position = position
            self.current = current
            self.torch = torch
            self.focus = focus
        }
    }

    /// The appliance's status (nil before the first refresh).
    public var status: ApplianceStatus?
    /// Cameras found.
    public var cameras: [Camera] = []
    /// Access: whether a PIN is configured, whether unlocked, and the lock-out left.
    public var access = AccessSummary.open
    /// Button lines by function with their debounced state.
    public var buttons: [(name: String, pressed: Bool)] = []
    /// Output lines by function with their state.
    public var outputs: [(name: String, on: Bool)] = []
    /// Recent log lines (problems and events), oldest first.
    public var log: [String] = []
    /// Settings as (key, value) pairs for the Settings page.
    public var settings: [(key: String, value: String)] = []
    /// The configuration file settings are saved to (nil: none).
    public var settingsFile: FilePath?
    /// Whether leaving the console is offered (on stdio; a serial console stays).
    public var canQuit = false
    /// Whether switching to line mode is offered.
    public var canSwitchToLineMode = false
    /// Whether the board is simulated.
    public var simulated = false

    /// An empty snapshot.
    public init() {}
}

/// The console's access state as shown to the user.
public struct AccessSummary: Hashable, Sendable {
    /// Whether a PIN is configured (without one everything is open).
    public var pinConfigured: Bool
    /// Whether library and settings are unlocked now.
    public var unlocked: Bool
    /// Seconds left of a lock-out after repeated wrong PINs (0: none).
    public var lockedOutSeconds: Int

    /// No PIN configured: everything open.
    public static let open = AccessSummary(pinConfigured: false, unlocked: true, lockedOutSeconds: 0)

    /// Creates a summary.
    public init(pinConfigured: Bool, unlocked: Bool, lockedOutSeconds: Int) {
        self.pinConfigured = pinConfigured
        self.unlocked = unlocked
        self.lockedOutSeconds = lockedOutSeconds
    }

    /// A short word for the title bar.
    public var label: String {
        if !pinConfigured { return "open" }
        if lockedOutSeconds > 0 { return "locked out \(lockedOutSeconds)s" }
        return unlocked ? "unlocked" : "locked"
    }
}
