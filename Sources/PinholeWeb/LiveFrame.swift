// The live view's frame size bound: a viewfinder image larger than the bound is scaled down
// before it is encoded, so a phone never gets the sensor's full stream.

import PinholeCore
import PinholeImaging

/// Makes a live-view JPEG of a viewfinder image, its longest side at most `longestSide`.
enum LiveFrame {
    /// `image`, scaled down (aspect kept, area-averaged) when its longest side is above
    /// `longestSide`; as it is otherwise.
    static func bounded(_ image: RawImage, longestSide: Int) -> RawImage {
        let side = max(1, longestSide)
        guard max(image.width, image.height) > side else { return image }
        let fitted = Resampler.fitRect(
            PixelSize(width: image.width, height: image.height), in: PixelSize(width: side, height: side))
        return Resampler.render(image, canvas: PixelSize(width: fitted.width, height: fitted.height))
    }
}
