"""cardgen's adjustments to ReportLab (cardgen.render.paint_pdf.prepare_reportlab) keep its output."""

from __future__ import annotations

import zlib

from reportlab.pdfbase import pdfdoc

from cardgen.render.paint_pdf import prepare_reportlab


def reportlab_codec(text):
    """What ReportLab's pdfdocEnc does: its PDFDocEncoding codec for text, bytes unchanged."""
    return text.encode("extpdfdoc") if isinstance(text, str) else text


def outcome(encode, text):
    try:
        return encode(text)
    except UnicodeEncodeError:
        return UnicodeEncodeError


def test_fast_stream_encoding_gives_reportlabs_bytes_for_every_character():
    prepare_reportlab()
    fast = pdfdoc.pdfdocEnc
    assert getattr(fast, "_cardgen_fast", False)
    for code in range(0x250):
        text = f"1 0 0 1 72.00 14.50 Tm ({chr(code)}) Tj\n"
        assert outcome(fast, text) == outcome(reportlab_codec, text), code
    assert fast(b"bytes pass through") == b"bytes pass through"


def test_fast_deflate_is_still_flate():
    prepare_reportlab()
    stream = "0.50 0.25 1.00 rg 10.00 10.00 50.00 80.00 re f\n" * 500
    packed = pdfdoc.PDFZCompress.encode(stream)
    assert zlib.decompress(packed) == stream.encode("utf-8")
    assert len(packed) < len(stream) / 10
