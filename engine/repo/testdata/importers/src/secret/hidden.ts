import 'secret-hidden'
