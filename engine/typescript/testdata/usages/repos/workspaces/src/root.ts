import { createClient } from 'fakelib';

createClient();
