import eqlib = require('eqlib');
import def from 'eqlib';

const r: eqlib.Result = eqlib('x');
r.value;
eqlib.parse('y').ok;
def.version;
const lib = require('eqlib');
lib('z');
lib.parse('w');
