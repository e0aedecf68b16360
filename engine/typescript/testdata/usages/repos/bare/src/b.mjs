import lib, { email } from 'barelib';
import * as ns from 'barelib';

lib.email();
email();
ns.default.name.first();
