import { createClient, makeClient as mk, Client, Base, Derived, type Plugin, z } from 'fakelib';

const c = createClient({ url: 'x', onError(e) {} });
c.get('k');
c.timeout = 5;
const d = mk();
const e = new Client({ url: 'y' });
const f = Client.create();
class Mine extends Base implements Plugin {
  setup() {}
}
const s = z.string().min(1).max(2);
type T = z.infer<typeof s>;
const { get } = c;
get('x');
new Derived().run();
export { d, e, f, Mine, type T };
