"""The Array API standard's linalg extension (ivy.linalg)."""

from collections import namedtuple as _namedtuple

from . import _ivy as _C
from ._helpers import Array as _Array, dtype_arg as _dtype_arg, real_number as _real_number

_L = _C.linalg

__all__ = [
    "cholesky", "cross", "det", "diagonal", "eig", "eigh", "eigvals", "eigvalsh", "inv", "matmul",
    "matrix_norm", "matrix_power", "matrix_rank", "matrix_transpose", "outer", "pinv", "qr", "slogdet",
    "solve", "svd", "svdvals", "tensordot", "trace", "vecdot", "vector_norm",
]

EighResult = _namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
EigResult = _namedtuple("EigResult", ["eigenvalues", "eigenvectors"])
QRResult = _namedtuple("QRResult", ["Q", "R"])
SlogdetResult = _namedtuple("SlogdetResult", ["sign", "logabsdet"])
SVDResult = _namedtuple("SVDResult", ["U", "S", "Vh"])


def _rtol(rtol):
    if rtol is None:
        return None
    return _real_number(rtol, "rtol")


def _per_matrix(rtol):
    """True for an array rtol (one value per matrix, broadcast against the batch shape)."""
    return isinstance(rtol, _Array) and rtol.ndim > 0


def cholesky(x, /, *, upper=False):
    return _L.cholesky(x, upper)


def cross(x1, x2, /, *, axis=-1):
    return _L.cross(x1, x2, axis)


def det(x, /):
    return _L.det(x)


def diagonal(x, /, *, offset=0):
    return _L.diagonal(x, offset)


def eig(x, /):
    return EigResult(*_L.eig(x))


def eigh(x, /):
    return EighResult(*_L.eigh(x))


def eigvals(x, /):
    return _L.eigvals(x)


def eigvalsh(x, /):
    return _L.eigvalsh(x)


def inv(x, /):
    return _L.inv(x)


def matmul(x1, x2, /):
    return _L.matmul(x1, x2)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):  # noqa: A002
    return _L.matrix_norm(x, keepdims, ord)


def matrix_power(x, n, /):
    return _L.matrix_power(x, n)


def matrix_rank(x, /, *, rtol=None):
    if _per_matrix(rtol):
        return _L.matrix_rank_array_rtol(x, rtol)
    return _L.matrix_rank(x, _rtol(rtol))


def matrix_transpose(x, /):
    return _L.matrix_transpose(x)


def outer(x1, x2, /):
    return _L.outer(x1, x2)


def pinv(x, /, *, rtol=None):
    if _per_matrix(rtol):
        return _L.pinv_array_rtol(x, rtol)
    return _L.pinv(x, _rtol(rtol))


def qr(x, /, *, mode="reduced"):
    return QRResult(*_L.qr(x, mode))


def slogdet(x, /):
    return SlogdetResult(*_L.slogdet(x))


def solve(x1, x2, /):
    return _L.solve(x1, x2)


def svd(x, /, *, full_matrices=True):
    return SVDResult(*_L.svd(x, full_matrices))


def svdvals(x, /):
    return _L.svdvals(x)


def tensordot(x1, x2, /, *, axes=2):
    return _C.tensordot(x1, x2, axes)  # the same function as ivy.tensordot


def trace(x, /, *, offset=0, dtype=None):
    return _L.trace(x, offset, _dtype_arg(dtype))


def vecdot(x1, x2, /, *, axis=-1):
    return _L.vecdot(x1, x2, axis)


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):  # noqa: A002
    return _L.vector_norm(x, axis, keepdims, ord)
