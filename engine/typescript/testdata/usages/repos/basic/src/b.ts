import * as fl from 'fakelib';
import { helper } from 'fakelib/extra';

helper();
let o: fl.ClientOptions = { url: 'z', retries: 1 };
fl.createClient(o);
type U = fl.TypeOf<string>;
export type { U };
