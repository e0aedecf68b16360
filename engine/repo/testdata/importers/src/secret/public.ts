import 'secret-public'
