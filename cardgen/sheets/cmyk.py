"""CMYK print-on-demand singles (`cardgen sheets --singles --cmyk PROFILE.icc`), for shops that ask
for CMYK files.

Every colour is turned from sRGB (what layouts.yaml colours and art are) into the CMYK of the
shop's printing condition through its ICC output profile (LittleCMS, through Pillow's ImageCms),
and the profile is embedded as the PDF's output intent (GTS_PDFX), as PDF/X files carry it:
vector colours, text, SVG art and raster art alike, so no DeviceRGB is left on a page. Without
the shop's profile there is no honest conversion, so the flag asks for one.
"""

from __future__ import annotations

from pathlib import Path

from cardgen.errors import ContentError, Issue

RELATIVE = 1        # ImageCms.Intent.RELATIVE_COLORIMETRIC: flat colours keep their look on paper
PERCEPTUAL = 0      # ImageCms.Intent.PERCEPTUAL: for photographs and painted art
MAX_PROFILE = 20 * 1024 * 1024    # bytes: ICC output profiles are a few MB at most


class Converter:
    """sRGB to one printing condition's CMYK, remembered per colour."""

    def __init__(self, profile_path: Path):
        from PIL import ImageCms

        self.path = Path(profile_path)
        self.data = _read_profile(self.path)
        try:
            profile = ImageCms.ImageCmsProfile(_bytes_io(self.data))
        except (OSError, ImageCms.PyCMSError) as exc:
            raise _bad(self.path, f"not an ICC profile ({exc})") from None
        if profile.profile.xcolor_space.strip() != "CMYK":
            raise _bad(self.path, f"its colour space is {profile.profile.xcolor_space.strip()}: a CMYK "
                                  f"output profile is needed (ask the shop for its printing condition's)")
        self.name = (ImageCms.getProfileDescription(profile) or self.path.stem).strip()
        srgb = ImageCms.createProfile("sRGB")
        self._flat = ImageCms.buildTransform(srgb, profile, "RGB", "CMYK", renderingIntent=RELATIVE)
        self._art = ImageCms.buildTransform(srgb, profile, "RGB", "CMYK", renderingIntent=PERCEPTUAL)
        self._memo: dict[tuple[int, int, int], tuple[float, float, float, float]] = {}

    def colour(self, r: int, g: int, b: int) -> tuple[float, float, float, float]:
        """An sRGB colour (0-255) as c, m, y, k (0-1)."""
        cmyk = self._memo.get((r, g, b))
        if cmyk is None:
            from PIL import Image, ImageCms

            pixel = ImageCms.applyTransform(Image.new("RGB", (1, 1), (r, g, b)), self._flat).getpixel((0, 0))
            cmyk = self._memo[r, g, b] = tuple(round(v / 255, 3) for v in pixel)
        return cmyk

    def operands(self, r: int, g: int, b: int) -> str:
        """The colour as a content stream's four numbers (for the `k` and `K` operators)."""
        return " ".join(f"{v:.3f}" for v in self.colour(r, g, b))

    def reportlab(self, colour):
        """For ReportLab's enforceColorSpace: any colour it is given, as a CMYKColor."""
        from reportlab.lib.colors import CMYKColor, toColor

        c = toColor(colour)
        if isinstance(c, CMYKColor):
            return c
        cyan, magenta, yellow, black = self.colour(*(round(v * 255) for v in (c.red, c.green, c.blue)))
        return CMYKColor(cyan, magenta, yellow, black, alpha=c.alpha)

    def image(self, image):
        """A raster image in CMYK (art: perceptual), and its alpha channel or None."""
        from PIL import ImageCms

        alpha = image.getchannel("A") if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info \
            else None
        if alpha is not None and image.mode != "RGBA":
            image = image.convert("RGBA")
            alpha = image.getchannel("A")
        return ImageCms.applyTransform(image.convert("RGB"), self._art), alpha

    def output_intent(self, canvas) -> None:
        """Embed the profile as the document's output intent, as PDF/X files name their printing
        condition."""
        from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFStream, PDFString

        stream = PDFStream(PDFDictionary({"N": 4}), self.data)
        intent = PDFDictionary({
            "Type": PDFName("OutputIntent"), "S": PDFName("GTS_PDFX"),
            "OutputConditionIdentifier": PDFString(self.name), "Info": PDFString(self.name),
            "DestOutputProfile": canvas._doc.Reference(stream),
        })
        catalog = canvas._doc.Catalog
        # ReportLab writes only the catalog keys it lists (OutputIntents is not among them)
        if "OutputIntents" not in catalog.__NoDefault__:
            catalog.__NoDefault__ = [*catalog.__NoDefault__, "OutputIntents"]
        catalog.OutputIntents = PDFArray([intent])


def _bytes_io(data: bytes):
    import io

    return io.BytesIO(data)


def _read_profile(path: Path) -> bytes:
    if not path.is_file():
        raise _bad(path, "no such file")
    if path.stat().st_size > MAX_PROFILE:
        raise _bad(path, f"larger than {MAX_PROFILE // (1024 * 1024)} MB: not an ICC output profile")
    return path.read_bytes()


def _bad(path: Path, message: str) -> ContentError:
    return ContentError([Issue(path, None, "--cmyk", message)])
