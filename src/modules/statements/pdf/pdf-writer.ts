import { PDFDocument, PDFFont, PDFPage, rgb, RGB, StandardFonts } from 'pdf-lib';
import type { Branding } from 'src/modules/statements/branding.service';

const PAGE: [number, number] = [612, 792]; // US Letter, points
const MARGIN = 48;
const LINE = 13;
const DEFAULT_ACCENT = '#1f4e79';

/** Text the standard fonts can encode (WinAnsi): anything else becomes '?'. */
function printable(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?');
}

function color(hex: string): RGB {
  const n = Number.parseInt(hex.slice(1), 16);
  return rgb(((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255);
}

export interface Column {
  header: string;
  /** x offset from the left margin, in points. */
  x: number;
  /** Right-aligned (numbers) when true. */
  right?: boolean;
}

/**
 * A small layout helper over pdf-lib: a branded header on every page, lines of text, tables that
 * continue on the next page, and a line chart. Text is drawn as real text (searchable, and read
 * back by pdftotext in the tests).
 */
export class PdfWriter {
  private page!: PDFPage;
  private y = 0;
  private readonly accent: RGB;

  private constructor(
    private readonly doc: PDFDocument,
    private readonly regular: PDFFont,
    private readonly bold: PDFFont,
    private readonly branding: Branding,
    private readonly title: string,
  ) {
    this.accent = color(branding.accent_color ?? DEFAULT_ACCENT);
    this.newPage();
  }

  static async create(branding: Branding, title: string, at: Date): Promise<PdfWriter> {
    const doc = await PDFDocument.create();
    doc.setTitle(title);
    doc.setAuthor(branding.display_name ?? 'Brokerage');
    doc.setCreationDate(at);
    doc.setModificationDate(at);
    doc.setProducer('investment-service');
    doc.setCreator('investment-service');
    const [regular, bold] = await Promise.all([
      doc.embedFont(StandardFonts.Helvetica),
      doc.embedFont(StandardFonts.HelveticaBold),
    ]);
    return new PdfWriter(doc, regular, bold, branding, title);
  }

  private newPage(): void {
    this.page = this.doc.addPage(PAGE);
    const [width, height] = PAGE;
    this.page.drawRectangle({ x: 0, y: height - 8, width, height: 8, color: this.accent });
    this.page.drawText(printable(this.branding.display_name ?? 'Brokerage account'), {
      x: MARGIN,
      y: height - 40,
      size: 16,
      font: this.bold,
      color: this.accent,
    });
    this.page.drawText(printable(this.title), { x: MARGIN, y: height - 58, size: 11, font: this.regular });
    this.y = height - 84;
  }

  private room(lines: number): void {
    if (this.y - lines * LINE < MARGIN) {
      this.newPage();
    }
  }

  line(text: string, options: { bold?: boolean; size?: number } = {}): void {
    this.room(1);
    this.page.drawText(printable(text), {
      x: MARGIN,
      y: this.y,
      size: options.size ?? 9,
      font: options.bold ? this.bold : this.regular,
    });
    this.y -= LINE;
  }

  heading(text: string): void {
    this.room(3);
    this.y -= 6;
    this.page.drawText(printable(text), {
      x: MARGIN,
      y: this.y,
      size: 11,
      font: this.bold,
      color: this.accent,
    });
    this.y -= LINE + 2;
  }

  table(columns: Column[], rows: string[][]): void {
    const draw = (cells: string[], font: PDFFont) => {
      this.room(1);
      columns.forEach((c, i) => {
        const text = printable(cells[i] ?? '');
        const width = font.widthOfTextAtSize(text, 8);
        this.page.drawText(text, { x: MARGIN + c.x - (c.right ? width : 0), y: this.y, size: 8, font });
      });
      this.y -= LINE;
    };
    draw(
      columns.map((c) => c.header),
      this.bold,
    );
    rows.forEach((row) => draw(row, this.regular));
    if (rows.length === 0) {
      this.line('None.');
    }
  }

  /** A line chart of values over the page width (one series), with its low and high labelled. */
  chart(label: string, values: number[]): void {
    const height = 110;
    this.room(Math.ceil((height + 30) / LINE));
    this.heading(label);
    const width = PAGE[0] - 2 * MARGIN;
    const bottom = this.y - height;
    this.page.drawRectangle({
      x: MARGIN,
      y: bottom,
      width,
      height,
      borderColor: rgb(0.75, 0.75, 0.75),
      borderWidth: 0.5,
    });
    const low = Math.min(...values);
    const high = Math.max(...values);
    const span = high - low || 1;
    const step = values.length > 1 ? width / (values.length - 1) : 0;
    const point = (v: number, i: number) => ({
      x: MARGIN + i * step,
      y: bottom + 8 + ((v - low) / span) * (height - 16),
    });
    for (let i = 1; i < values.length; i++) {
      this.page.drawLine({
        start: point(values[i - 1], i - 1),
        end: point(values[i], i),
        thickness: 1.5,
        color: this.accent,
      });
    }
    this.y = bottom - LINE;
  }

  async bytes(): Promise<Buffer> {
    return Buffer.from(await this.doc.save({ useObjectStreams: false }));
  }
}
