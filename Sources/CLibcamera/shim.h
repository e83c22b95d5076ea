/* Marker header: libcamera is C++ only; CameraShim includes its headers. */
#pragma once
