import { image } from 'framework';
import { el } from 'uikit-js';

image();
el({ id: 'a', tw: 'flex' });
