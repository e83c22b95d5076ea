// The line-mode console answers while the camera hangs at open, and says the camera is missing.

import PinholeAppliance
import PinholeBoard
import PinholeConsole
import PinholeCore
import PinholeSim
import XCTest

final class CameraMissingConsoleTests: XCTestCase {
    func testTheConsoleAnswersWhileTheCameraHangsAtOpenAndSaysItIsMissing() throws {
        let loop = EventLoop.virtual()
        let board = try BuiltInBoards.simulated()
        var back = SimCameraSpec.back
        back.pixelArraySize = PixelSize(width: 320, height: 240)
        let cameras = SimulatedCameraProvider(loop: loop, world: SimWorld(), specs: [back])
        cameras.hangOpens(of: back.id)
        let appliance = Appliance(
            loop: loop, board: board, gpio: SimulatedGPIO(loop: loop, lineNames: board.lineNames),
            cameras: cameras, encoder: NullEncoder(), store: MemoryStore())
        try appliance.start()
        defer { appliance.shutdown() }
        let lines = Sink<String>()
        let console = LineModeConsole(appliance: appliance, simulation: nil, library: nil) {
            lines.items.append($0)
        }
        console.receive(line: "status")
        loop.advance(by: .milliseconds(10))
        XCTAssertEqual(lines.take().filter { $0.hasPrefix("ok camera none,") }.count, 1, "opening: none yet")
        loop.advance(by: appliance.cameraOpenDeadline)
        console.receive(line: "status")
        loop.advance(by: .milliseconds(10))
        let output = lines.take()
        XCTAssertTrue(
            output.contains { $0.hasPrefix("event problem the camera did not open within 10 s") }, "\(output)"
        )
        let answer = output.filter { $0.hasPrefix("ok ") }.joined(separator: "\n")
        XCTAssertTrue(answer.hasPrefix("ok camera missing (the camera did not open within 10 s"), answer)
        console.receive(line: "status --json")
        loop.advance(by: .milliseconds(10))
        let json = lines.take().joined(separator: "\n")
        XCTAssertTrue(json.contains("\"cameraMissing\":\"the camera did not open within 10 s"), json)
        cameras.endOpenHang(back.id)
        console.receive(line: "status")
        loop.advance(by: .milliseconds(10))
        let running = lines.take().filter { $0.hasPrefix("ok ") }.joined(separator: "\n")
        XCTAssertTrue(running.hasPrefix("ok camera \(back.model) (back)"), running)
    }
}
