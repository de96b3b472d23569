/**
 * Marks, in a shape, a run of the value's own characters: the character after it holds the run's length. A cell
 * holding it is kept as no shape.
 */
const valueRun = '\u0000';
const longestRun = 0xffff;
/** Characters a shape keeps besides the value's (the dots and the dash of a CPF, the spaces around a SKU). */
const maxShapeLiterals = 64;
/** Different shapes kept per file: a file writes its values in a few ways, not thousands. */
const maxShapes = 4_096;
/** The cell is the value itself (`52998224725`, `A-1`): nothing to keep. */
const asTheValue = 0;
/** How the cell wrote the value was not kept (no cell: JSON; a shape past the limits above). */
const notKept = 0xffff;

/**
 * How the first record of each unique value wrote it, kept without its cell: a record repeated later is reported
 * once the file is read (RecordChecker.lateProblems) and quotes its value as its own cell wrote it, as every problem
 * does (`529.982.247-25`, not the `52998224725` b2bctl reads), so a search of the file finds it.
 *
 * A cell is the value with a few characters around or between its own: its shape (`___.___.___-__` for a CPF) is kept
 * once per file, and each record's place is noted with its shape's number only where the shape changes from the
 * record before. A file that writes every document one way holds one entry whatever its length; one that alternates
 * two ways holds 6 bytes a record, where the cells themselves would be ~60 bytes a record.
 */
export class WrittenShapes {
  private readonly numbers = new Map<string, number>();
  /** By number; the first, asTheValue, needs no shape. */
  private readonly shapes: string[] = [''];
  private readonly runs = new Map<string, ShapeRuns>();

  /**
   * Notes how the record at `place` wrote `value` of kind `label`: `written` is its cell as the file shows it, when it
   * has one. Places come in file order, and every first record of a value of that kind is noted.
   */
  note(label: string, place: number, value: string, written: string | undefined): void {
    let runs = this.runs.get(label);
    if (runs === undefined) {
      runs = new ShapeRuns();
      this.runs.set(label, runs);
    }
    runs.note(place, this.numberOfCell(runs.last, value, written));
  }

  /** The number of the shape `written` has, tried first against the record before's: rows of a file look alike. */
  private numberOfCell(last: number | undefined, value: string, written: string | undefined): number {
    if (written === value) return asTheValue;
    if (written === undefined) return notKept;
    if (
      last !== undefined &&
      last !== asTheValue &&
      last !== notKept &&
      fits(this.shapes[last] as string, value, written)
    )
      return last;
    return this.numberOf(shapeOf(value, written));
  }

  /** The cell the record at `place` wrote `value` of kind `label` in, or undefined when it was not kept. */
  writtenAt(label: string, place: number, value: string): string | undefined {
    const number = this.runs.get(label)?.numberAt(place);
    if (number === undefined || number === notKept) return undefined;
    return number === asTheValue ? value : filledShape(this.shapes[number] as string, value);
  }

  private numberOf(shape: string | undefined): number {
    if (shape === undefined) return notKept;
    const known = this.numbers.get(shape);
    if (known !== undefined) return known;
    if (this.shapes.length >= maxShapes) return notKept;
    this.numbers.set(shape, this.shapes.length);
    this.shapes.push(shape);
    return this.shapes.length - 1;
  }
}

/**
 * `written` with the characters of `value` in it (in order, each where it first fits) as runs of valueRun: a cell
 * that does not hold the value's characters so (another case, say) is kept as a whole when it is short.
 */
export function shapeOf(value: string, written: string): string | undefined {
  if (written.includes(valueRun)) return undefined;
  let shape = '';
  let literals = 0;
  let taken = 0;
  let run = 0;
  for (let index = 0; index < written.length; index++) {
    const character = written[index] as string;
    if (taken < value.length && character === value[taken]) {
      if (run === longestRun) {
        shape += valueRun + String.fromCharCode(run);
        run = 0;
      }
      taken++;
      run++;
      continue;
    }
    if (run > 0) shape += valueRun + String.fromCharCode(run);
    run = 0;
    if (++literals > maxShapeLiterals) return undefined;
    shape += character;
  }
  if (run > 0) shape += valueRun + String.fromCharCode(run);
  if (taken === value.length) return shape;
  return written.length <= maxShapeLiterals ? written : undefined;
}

/**
 * The cell a shape stands for with `value`; undefined when the value does not fit it (two values of one hash in the
 * duplicate index, 1 in 18,000 files). A shape without runs is a whole cell.
 */
export function filledShape(shape: string, value: string): string | undefined {
  let text = '';
  let taken = 0;
  for (let index = 0; index < shape.length; index++) {
    if (shape[index] !== valueRun) {
      text += shape[index];
      continue;
    }
    const run = shape.charCodeAt(++index);
    text += value.slice(taken, taken + run);
    taken += run;
  }
  return taken === value.length || taken === 0 ? text : undefined;
}

/**
 * Whether `written` is `shape` filled with `value`, without making the shape or the cell: a formatted CPF's shape
 * made per row was a tenth of a 300,000-row `customer validate`.
 */
function fits(shape: string, value: string, written: string): boolean {
  let at = 0;
  let taken = 0;
  for (let index = 0; index < shape.length; index++) {
    if (shape[index] !== valueRun) {
      if (written[at++] !== shape[index]) return false;
      continue;
    }
    const run = shape.charCodeAt(++index);
    for (let count = 0; count < run; count++) if (written[at++] !== value[taken++]) return false;
  }
  return at === written.length && taken === value.length;
}

/** The shape's number of each noted place, kept where it changes: places ascend, so a search finds any. */
class ShapeRuns {
  private places = new Uint32Array(16);
  private numbers = new Uint16Array(16);
  private length = 0;

  /** The number noted last, if any. */
  get last(): number | undefined {
    return this.length === 0 ? undefined : this.numbers[this.length - 1];
  }

  note(place: number, number: number): void {
    if (this.length > 0 && this.numbers[this.length - 1] === number) return;
    if (this.length === this.places.length) {
      // Grown by half, not doubled: less room left unused in a file that changes shape on most rows.
      const capacity = Math.ceil(this.length * 1.5);
      const places = new Uint32Array(capacity);
      const numbers = new Uint16Array(capacity);
      places.set(this.places);
      numbers.set(this.numbers);
      this.places = places;
      this.numbers = numbers;
    }
    this.places[this.length] = place;
    this.numbers[this.length] = number;
    this.length++;
  }

  /** The number noted last at or before `place`. */
  numberAt(place: number): number | undefined {
    let low = 0;
    let high = this.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.places[middle] as number) <= place) low = middle + 1;
      else high = middle;
    }
    return low === 0 ? undefined : this.numbers[low - 1];
  }
}
