import 'anchored-ignore'
