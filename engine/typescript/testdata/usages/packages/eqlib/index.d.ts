declare function eqlib(input: string): eqlib.Result;
declare namespace eqlib {
  interface Result {
    ok: boolean;
    value: string;
  }
  function parse(input: string): Result;
  const version: string;
}
export = eqlib;
