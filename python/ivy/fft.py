"""The Array API standard's fft extension (ivy.fft)."""

from . import _ivy as _C
from ._helpers import device_arg as _device_arg, dtype_arg as _dtype_arg

_F = _C.fft

__all__ = [
    "fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft",
    "fftfreq", "rfftfreq", "fftshift", "ifftshift",
]


def fft(x, /, *, n=None, axis=-1, norm="backward"):
    return _F.fft(x, n, axis, norm)


def ifft(x, /, *, n=None, axis=-1, norm="backward"):
    return _F.ifft(x, n, axis, norm)


def fftn(x, /, *, s=None, axes=None, norm="backward"):
    return _F.fftn(x, s, axes, norm)


def ifftn(x, /, *, s=None, axes=None, norm="backward"):
    return _F.ifftn(x, s, axes, norm)


def rfft(x, /, *, n=None, axis=-1, norm="backward"):
    return _F.rfft(x, n, axis, norm)


def irfft(x, /, *, n=None, axis=-1, norm="backward"):
    return _F.irfft(x, n, axis, norm)


def rfftn(x, /, *, s=None, axes=None, norm="backward"):
    return _F.rfftn(x, s, axes, norm)


def irfftn(x, /, *, s=None, axes=None, norm="backward"):
    return _F.irfftn(x, s, axes, norm)


def hfft(x, /, *, n=None, axis=-1, norm="backward"):
    return _F.hfft(x, n, axis, norm)


def ihfft(x, /, *, n=None, axis=-1, norm="backward"):
    return _F.ihfft(x, n, axis, norm)


def fftfreq(n, /, *, d=1.0, dtype=None, device=None):
    return _F.fftfreq(n, d, _dtype_arg(dtype), _device_arg(device))


def rfftfreq(n, /, *, d=1.0, dtype=None, device=None):
    return _F.rfftfreq(n, d, _dtype_arg(dtype), _device_arg(device))


def fftshift(x, /, *, axes=None):
    return _F.fftshift(x, axes)


def ifftshift(x, /, *, axes=None):
    return _F.ifftshift(x, axes)
