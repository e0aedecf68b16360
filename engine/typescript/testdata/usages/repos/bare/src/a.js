const fake = require('barelib');
const { email, name: who } = require('barelib');
require('barelib');

fake.email();
fake.name.first();
email();
who.first();
new fake.Thing();
console.log(fake, require('barelib').email());
